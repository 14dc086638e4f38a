import { ApplicationFailure } from '@temporalio/activity';
import { PermanentMailError, type Mailer, type OutgoingMail } from '../services/mailer.ts';

/**
 * Sends one e-mail from an activity. A failure is logged and thrown: Temporal retries it, except an SMTP 5xx
 * reply, which no retry changes, so it fails the activity for good.
 */
export async function sendFromActivity(
  mailer: Mailer,
  mail: OutgoingMail,
  logFailure: (error: unknown) => void,
): Promise<void> {
  try {
    await mailer.send(mail);
  } catch (error) {
    logFailure(error);
    if (error instanceof PermanentMailError) throw ApplicationFailure.nonRetryable(error.message, 'PermanentMailError');
    throw error;
  }
}
