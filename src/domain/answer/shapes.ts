/** The shapes the reader knows, named for a person ("what we looked for" when an answer has no text). Pure. */
import { l10n } from '../../common/plainL10n';

export function describeShapes(): string {
  return l10n.t(
    'Chat Completions choices[].message.content (or streamed choices[].delta.content), Responses output[] message text or output_text (or streamed response.output_text.delta), a top-level message, output or text string, or a plain-text body',
  );
}
