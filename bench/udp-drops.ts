/**
 * Where lost packets went: the kernel counts, per UDP socket, datagrams dropped because the owner did not
 * read its receive buffer in time (/proc/net/udp, last column). Comparing the worker's sockets with the bench's own
 * tells a relay that could not keep up from a generator that could not.
 */
import { readFileSync } from 'node:fs';

/** Drops by local port, from the text of /proc/net/udp (IPv4 loopback sockets only matter here). */
export function parseUdpDrops(procNetUdp: string): Map<number, number> {
  const drops = new Map<number, number>();
  for (const line of procNetUdp.split('\n').slice(1)) {
    const columns = line.trim().split(/\s+/);
    if (columns.length < 13) continue;
    const port = Number.parseInt(columns[1]!.split(':')[1] ?? '', 16);
    const dropped = Number(columns[columns.length - 1]);
    if (Number.isFinite(port) && Number.isFinite(dropped)) drops.set(port, (drops.get(port) ?? 0) + dropped);
  }
  return drops;
}

export function readUdpDrops(): Map<number, number> {
  try {
    return parseUdpDrops(readFileSync('/proc/net/udp', 'utf8'));
  } catch {
    return new Map(); // not Linux: the attribution is left out, the figures stand
  }
}

/** Datagrams the given ports dropped between two readings. */
export function dropsBetween(before: Map<number, number>, after: Map<number, number>, ports: Iterable<number>) {
  let total = 0;
  for (const port of ports) total += (after.get(port) ?? 0) - (before.get(port) ?? 0);
  return total;
}
