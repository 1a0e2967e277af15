import { ServerResponse, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { toErrorResponse } from './error-response';

/** What Node's HTTP parser reports about a request it could not read (a `clientError`); `reason` is llhttp's. */
type ParserError = ConnectionError & { reason?: string };

// After the answer, the rest of the refused request is read and dropped for this long before the socket is
// destroyed: destroying it with bytes unread resets the connection, which can discard the answer on its way.
const LINGER_MS = 2_000;

function statusAndMessage(error: ParserError): [number, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, `The request line and headers exceed the limit of ${maxHeaderSize} bytes`];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'The chunk extensions of the request body exceed their limit'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'The request was not received in time'];
    default:
      return [400, `The request is not valid HTTP/1.1${error.reason ? `: ${error.reason}` : ''}`];
  }
}

/** The request target, when the bytes Node kept start with a well-formed request line. */
function requestPath(error: ParserError): string | undefined {
  // A Buffer at run time, whatever Fastify's type says.
  const raw: unknown = error.rawPacket;
  return Buffer.isBuffer(raw) ? /^[A-Z]+ ([\x21-\x7e]+) HTTP\/\d\.\d\r?\n/.exec(raw.toString('latin1'))?.[1] : undefined;
}

/**
 * Fastify's clientErrorHandler: a request Node's parser refused (headers over the limit, a malformed request line, one
 * that took too long) is answered in the service's error shape with `Connection: close`, then the connection ends. Without
 * that header a keep-alive client (Node's default agent) sends its next request on the closing socket and gets "socket hang up".
 */
export function answerClientError(error: ParserError, socket: Socket): void {
  // Gone already, or answered: the parser reports each later chunk of the refused request again.
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  // A response under way on this socket (a pipelined request's) cannot be followed by another one.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, message] = statusAndMessage(error);
  const path = requestPath(error);
  const { statusCode, body } = toErrorResponse(Object.assign(new Error(message), { statusCode: status }), path ?? '');
  if (path === undefined) delete body.path;
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${statusCode} ${String(body.error)}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
  );
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}
