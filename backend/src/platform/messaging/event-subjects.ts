/** Integration-event subjects (`evt.…`): the ones stored for durable subscribers, unlike `user.<id>`. */
export function isEventSubject(subjectOrPattern: string): boolean {
  return subjectOrPattern.startsWith('evt.');
}
