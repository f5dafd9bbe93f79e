// The one HTML escaping helper of the project: text read from screens, model answers, labels and
// file names go into the HTML reports through it (text content and quoted attribute values).
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
