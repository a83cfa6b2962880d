export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** The port every context sends mail through. Subjects are logged in development: keep codes out of them. */
export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
}
