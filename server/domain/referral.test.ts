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

  it('names link-preview fetchers, archivers and HTTP libraries', () => {
    for (const ua of [
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'WhatsApp/2.23.20.0',
      'Mozilla/5.0 (compatible; GoogleOther)',
      'Mediapartners-Google',
      'ia_archiver',
      'axios/1.6.2',
      'HTTPie/3.2.2',
      'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
      'SkypeUriPreview Preview/0.5',
    ])
      expect(declaresBot(ua), ua).toBe(true);
  });

  it('names every kind of client counted out before: crawlers, monitors, scanners, scripts, Lighthouse', () => {
    for (const ua of [
      'Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)',
      'some-crawler/1.0',
      'Mozilla/5.0 (compatible; spider/1.0)',
      'LinkPreview/1.0',
      'UptimeRobot/2.0; http://www.uptimerobot.com/',
      'Site24x7 monitor',
      'Mozilla/5.0 (compatible; Scanner/1.0)',
      'Wget/1.21.4',
      'python-requests/2.31.0',
      'Python-urllib/3.11',
      'Java/17.0.1',
      'Go-http-client/1.1',
      'Mozilla/5.0 (Linux; Android 11; moto g power) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/94.0 Mobile Safari/537.36 Chrome-Lighthouse',
    ])
      expect(declaresBot(ua), ua).toBe(true);
  });

  it("counts people's browsers, a Cubot phone's among them", () => {
    for (const ua of [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
      'Mozilla/5.0 (Linux; Android 12; CUBOT P50) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
      'Mozilla/5.0 (Linux; Android 12; CUBOT KINGKONG 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      'Mozilla/5.0 (Linux; Android 13; SM-G991B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0 Mobile Safari/537.36 Instagram 280.0',
    ])
      expect(declaresBot(ua), ua).toBe(false);
  });
});
