// Which clients are robots: followed, never counted. A phone maker's name is not a robot's.
import { describe, expect, it } from 'vitest';
import { declaresBot } from './referral.ts';

describe('declaresBot', () => {
  it('names crawlers, previews, monitors and scripts, and no User-Agent at all', () => {
    for (const ua of [
      'Googlebot/2.1 (+http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'curl/8.5.0',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/120.0',
      '',
      undefined,
    ])
      expect(declaresBot(ua), String(ua)).toBe(true);
  });

  it("counts people's browsers, a Cubot phone's among them", () => {
    for (const ua of [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
      'Mozilla/5.0 (Linux; Android 12; CUBOT P50) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
    ])
      expect(declaresBot(ua), ua).toBe(false);
  });
});
