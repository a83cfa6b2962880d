// The common password list the server checks new passwords against (CommonJS, untyped).
declare module 'fxa-common-password-list' {
  const list: { test(password: string): boolean };
  export default list;
}
