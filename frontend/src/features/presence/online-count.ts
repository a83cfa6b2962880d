/** '1 person online', '1,234 people online' (spec 4 "Presence": users see only how many are online). */
export function onlineCountText(count: number): string {
  return count === 1 ? '1 person online' : `${count.toLocaleString('en')} people online`;
}
