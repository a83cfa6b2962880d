import { describe, expect, it } from 'vitest';
import {
  expectEffectiveDateAndContact,
  expectSections,
  headTags,
  renderStaticPage,
  sectionText,
} from '../legal/render-static-page';

describe('community guidelines', () => {
  it('states every guideline point of spec 5, then how to report and what happens after', async () => {
    const { title } = await renderStaticPage('/support/community-guidelines');

    expect(title.textContent).toBe('Community Guidelines');
    expectSections([
      /18\+/,
      /honest about who you are/i,
      /profile picture/i,
      /not allowed/i,
      /automation or scripting/i,
      /how to report/i,
      /after you report/i,
    ]);
    expect(sectionText('Be honest about who you are')).toMatch(/misrepresent your age or your identity/);
    expect(sectionText('Your profile picture')).toMatch(/first profile picture must show your full face/);
    const notAllowed = sectionText('Content that is not allowed');
    for (const kind of ['Explicit', 'Violent', 'Hateful', 'A scam']) expect(notAllowed).toContain(kind);
    const howTo = sectionText('How to report someone');
    expect(howTo).toMatch(/Select Report on the call screen/);
    expect(howTo).toMatch(/takes a screenshot of your partner’s video .* as soon as the report opens/);
    expect(howTo).toMatch(/the server takes its own snapshot of the reported person’s video/);
    expect(howTo).toMatch(/Security Center › Recent calls: the calls of the last 24 hours/);
    const after = sectionText('What happens after you report');
    expect(after).toMatch(/never matched with each other again/);
    expect(after).toMatch(/Account Restricted screen .* appeal the decision once/);
    expect(after).toMatch(/false or malicious reports .* counts against the person who made it/i);
    expect(after).toMatch(/action against the reporter/);
    expectEffectiveDateAndContact();
  });

  it('sets its title and description', async () => {
    await renderStaticPage('/support/community-guidelines');

    expect(document.title).toBe('Community Guidelines · Serendip');
    expect(headTags().description).toMatch(/adults only/);
  });
});
