import { DEFAULT_PUBLIC_CONFIG } from '@serendip/proto';
import { describe, expect, it, vi } from 'vitest';
import { readPublicConfig } from './public-config';

function pageWith(content?: string): Document {
  const doc = document.implementation.createHTMLDocument('x');
  if (content !== undefined) {
    const meta = doc.createElement('meta');
    meta.name = 'serendip-config';
    meta.content = content;
    doc.head.append(meta);
  }
  return doc;
}

describe('public config', () => {
  it("reads the server's tag", () => {
    const config = {
      supportEmail: 'help@serendip.example',
      companyName: 'Serendip Labs',
      socialLinks: { x: 'https://x.example/serendip' },
      systemStatusUrl: 'https://status.serendip.example',
    };
    expect(readPublicConfig(pageWith(JSON.stringify(config)))).toEqual(config);
  });

  it('falls back to the defaults without a tag, or with a broken one (and says so)', () => {
    expect(readPublicConfig(pageWith())).toEqual(DEFAULT_PUBLIC_CONFIG);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(readPublicConfig(pageWith('{"supportEmail": 1'))).toEqual(DEFAULT_PUBLIC_CONFIG);
    expect(error).toHaveBeenCalledOnce();
  });
});
