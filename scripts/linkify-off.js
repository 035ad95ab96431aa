// What markdown-it gets for `linkify-it` in the bundles: the panel's renderer sets `linkify: false`
// (src/requests/conversation/core/panelMarkdown.ts), and markdown-it's two linkify rules return before they
// touch it; it only constructs one. Any use would fail loudly here instead of linking text.
'use strict';
module.exports = class LinkifyOff {
  pretest() {
    throw new Error("linkify-it is not bundled (esbuild.js): keep markdown-it's `linkify: false`");
  }
  test() {
    return this.pretest();
  }
  match() {
    return this.pretest();
  }
};
