// multipart/form-data, as a browser sends one upload form: field names to their bytes (and a file part's name).
export interface Part {
  name: string;
  filename?: string;
  data: Buffer;
}

/** The parts of a body; [] when the content type names no boundary or the body does not follow it. */
export function partsOf(contentType: string | undefined, body: Buffer): Part[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString('utf8');
      const name = /name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      if (name !== undefined) parts.push({ name, filename, data: part.subarray(headerEnd + 4) });
    }
    at = next;
  }
  return parts;
}
