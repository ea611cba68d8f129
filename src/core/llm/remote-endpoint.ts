/**
 * Where a remote OpenAI-compatible server is, from what a parent types, and why this page cannot
 * reach it (before trying). Small and synchronous: the settings screen checks it on every edit.
 */
import { isLoopbackHost } from '../protocol/remote-card.ts';

/** The host a parent typed for the home computer (「192.168.1.20」), or the address as typed. */
export function remoteHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** `…/v1/chat/completions` from what a parent types as the base URL. */
export function chatCompletionsUrl(baseUrl: string): string {
  const b = baseUrl.trim().replace(/\/+$/, '');
  if (b.endsWith('/chat/completions')) return b;
  if (/\/v\d+$/.test(b)) return `${b}/chat/completions`;
  return `${b}/v1/chat/completions`;
}

/**
 * Why this endpoint cannot be used from this page, before trying: an invalid URL, or plain http
 * from an https page (browsers block mixed content; loopback is allowed). Undefined when fine.
 */
export function endpointProblem(baseUrl: string, pageUrl?: string): { code: 'model_remote_bad_url' | 'model_remote_mixed_content'; detail: string } | undefined {
  let url: URL;
  try {
    url = new URL(chatCompletionsUrl(baseUrl));
  } catch {
    return { code: 'model_remote_bad_url', detail: `接口地址“${baseUrl}”不是完整的网址（应以 http:// 或 https:// 开头）` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { code: 'model_remote_bad_url', detail: `接口地址必须以 http:// 或 https:// 开头，现在是“${baseUrl}”` };
  if (pageUrl?.startsWith('https:') && url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return { code: 'model_remote_mixed_content', detail: `${url.origin} 是 http 地址，本页面是 https` };
  return undefined;
}

/**
 * Whether `baseUrl` is a computer in the family's own network — loopback, the private IPv4 ranges
 * (10/8, 172.16/12, 192.168/16), link-local (169.254/16, fe80::/10), the shared range Tailscale and
 * carrier NAT use (100.64/10), IPv6 unique-local (fc00::/7), a `.local`/`.lan`/`.home.arpa`/`.internal`
 * name or a name without a dot (`mypc`) — and not a public host (a cloud API, a domain on the
 * internet). The remote brain prewarms only such a computer (remote-prewarm.ts).
 */
export function isHomeEndpoint(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(chatCompletionsUrl(baseUrl)).hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  } catch {
    return false;
  }
  if (isLoopbackHost(host)) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (host.includes(':')) return /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
  return !host.includes('.') || /\.(local|lan|home\.arpa|internal)$/.test(host);
}
