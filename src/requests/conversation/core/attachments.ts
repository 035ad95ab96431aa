/**
 * Attach File to Conversation: an image becomes an image part of the current user turn (a data URL, in
 * the shape of the payload's endpoint), a text file a text part. Pure; no `vscode` import.
 */
import { l10n } from '../../../common/l10n';
import { clean, type DisplayText } from '../../../common/text';
import { appendItems, apply, replaceValue, type EditResult, type Formatting, type TextChange } from './edits';
import { readConversation, turnAt, type Turn } from './turns';

export type Attachment =
  { kind: 'image'; name: string; mime: string; base64: string } | { kind: 'text'; name: string; text: string };

/** The image types a model accepts, by file extension. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The image type the bytes begin with (PNG, JPEG, GIF, WebP signatures), else undefined. */
export function sniffImage(bytes: Uint8Array): string | undefined {
  const starts = (sig: readonly number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return 'image/png';
  }
  if (starts([0xff, 0xd8, 0xff])) {
    return 'image/jpeg';
  }
  if (starts([0x47, 0x49, 0x46, 0x38])) {
    return 'image/gif';
  }
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) {
    return 'image/webp';
  }
  return undefined;
}

/** Why a file of `size` bytes is not attached, if it is over the limit (checked before it is read). */
export function sizeProblem(name: string, size: number, limitBytes: number): DisplayText | undefined {
  if (size <= limitBytes) {
    return undefined;
  }
  return l10n.t(
    '{0} is {1} MB, over the limit of {2} MB (modelAccess.conversation.maxAttachmentMegabytes); nothing was added.',
    clean(name),
    Math.round((size / 1048576) * 10) / 10,
    Math.round((limitBytes / 1048576) * 10) / 10,
  );
}

export type AttachmentRead = { ok: true; attachment: Attachment } | { ok: false; problem: DisplayText };

/**
 * What a file becomes: an image when its bytes are one, a text when they are UTF-8 text. A file named as an
 * image that is not one, a binary file, and a file over `limitBytes` are refused with the reason.
 */
export function readAttachment(name: string, bytes: Uint8Array, limitBytes: number): AttachmentRead {
  const tooLarge = sizeProblem(name, bytes.length, limitBytes);
  if (tooLarge) {
    return { ok: false, problem: tooLarge };
  }
  const extension = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  const mime = sniffImage(bytes);
  if (mime) {
    return { ok: true, attachment: { kind: 'image', name, mime, base64: Buffer.from(bytes).toString('base64') } };
  }
  if (IMAGE_TYPES[extension]) {
    return {
      ok: false,
      problem: l10n.t(
        '{0} is named as an image but is not a PNG, JPEG, GIF or WebP image; nothing was added.',
        clean(name),
      ),
    };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = '\u0000';
  }
  if (text.includes('\u0000')) {
    return {
      ok: false,
      problem: l10n.t(
        '{0} is neither an image (PNG, JPEG, GIF, WebP) nor UTF-8 text; upload it with "Upload File" instead.',
        clean(name),
      ),
    };
  }
  return { ok: true, attachment: { kind: 'text', name, text: text.replace(/^\uFEFF/, '') } };
}

/** The attachment as a content part of the endpoint's shape. */
export function attachmentPart(attachment: Attachment, kind: 'chat' | 'responses'): Record<string, unknown> {
  if (attachment.kind === 'image') {
    const url = `data:${attachment.mime};base64,${attachment.base64}`;
    return kind === 'chat' ? { type: 'image_url', image_url: { url } } : { type: 'input_image', image_url: url };
  }
  const text = `${attachment.name}:\n\n${attachment.text}`;
  return { type: kind === 'chat' ? 'text' : 'input_text', text };
}

/**
 * The attachment added to the user turn under the cursor (else the last user turn): a string content becomes
 * a list of parts, its text the first one.
 */
export function attach(
  text: string,
  attachment: Attachment,
  options: Formatting & { cursor?: number; endpoint?: string },
): EditResult {
  const read = readConversation(text, options.endpoint);
  if (!read.ok) {
    return read;
  }
  const conversation = read.conversation;
  const under = turnAt(conversation, options.cursor ?? -1);
  const target: Turn | undefined =
    under?.role === 'user' ? under : [...conversation.turns].reverse().find((t) => t.role === 'user');
  if (!target) {
    return { ok: false, problem: l10n.t('The conversation has no user turn to attach the file to; add one first.') };
  }
  const part = attachmentPart(attachment, conversation.kind);
  const textPart = (t: string) => ({ type: conversation.kind === 'chat' ? 'text' : 'input_text', text: t });
  let change: TextChange;
  if (conversation.single) {
    change = replaceValue(text, conversation, [{ role: 'user', content: [textPart(target.text), part] }], options);
  } else if (!target.content) {
    return { ok: false, problem: l10n.t('The user turn has no "content"; add one, then attach the file again.') };
  } else if (target.content.type === 'array') {
    change = appendItems(text, target.content, target.content.last, [part], options);
  } else {
    const parts = target.content.type === 'string' ? [textPart(target.text), part] : [part];
    change = replaceValue(text, target.content, parts, options);
  }
  return { ok: true, change, text: apply(text, change), cursor: change.offset + change.text.length };
}
