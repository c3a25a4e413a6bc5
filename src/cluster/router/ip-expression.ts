/**
 * Java's `NetUtils.matchIpExpression` for IPv4: a CIDR block (`10.0.0.0/8`, no port), or an
 * address pattern with an optional `:port`, each octet a number, `*` or a range `a-b`
 * (`192.168.1.*`, `10.0.0.1-9:20880`). `*` alone matches every host.
 */
export function matchIpExpression(pattern: string, host: string, port: number): boolean {
  const trimmed = pattern.trim();
  if (trimmed.includes("/")) return inCidr(trimmed, host);
  if (trimmed === "*" || trimmed === "*.*.*.*") return true;
  const colon = trimmed.lastIndexOf(":");
  const hostPattern = colon < 0 ? trimmed : trimmed.slice(0, colon);
  if (colon >= 0 && trimmed.slice(colon + 1) !== String(port)) return false;
  if (hostPattern === host) return true;
  const masks = hostPattern.split(".");
  const octets = host.split(".");
  if (masks.length !== 4 || octets.length !== 4) return false;
  return masks.every((mask, i) => {
    const octet = octets[i] ?? "";
    if (mask === "*" || mask === octet) return true;
    const range = /^(\d+)-(\d+)$/.exec(mask);
    if (range === null) return false;
    const value = Number(octet);
    return value >= Number(range[1]) && value <= Number(range[2]);
  });
}

function ipv4ToNumber(ip: string): number | undefined {
  const parts = ip.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

function inCidr(cidr: string, host: string): boolean {
  const [base = "", bitsText = ""] = cidr.split("/");
  const network = ipv4ToNumber(base);
  const address = ipv4ToNumber(host);
  const bits = Number(bitsText);
  if (network === undefined || address === undefined || !(bits >= 0 && bits <= 32)) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(network / size) === Math.floor(address / size);
}
