/**
 * How a non-JSON response body (a CSV, XLSX or PDF export, a downloaded attachment) travels
 * over the bridge, which carries structured-clone or JSON values only.
 */
export interface BinaryBody {
  encoding: 'base64';
  contentType: string;
  data: string;
}

export function isBinaryBody(body: unknown): body is BinaryBody {
  return (
    typeof body === 'object' && body !== null && (body as BinaryBody).encoding === 'base64' && typeof (body as BinaryBody).data === 'string'
  );
}
