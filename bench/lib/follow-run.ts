// The publish bench's follower: one `snapshot follow` run in a process of its own, so its peak RSS is its own.
// Usage: BASE KEYS DIR; prints { summary, max_rss_mib } as JSON.
import { followOnce } from '../../server/snapshots/follow.ts';

const [base, keys, dir] = process.argv.slice(2);
const summary = await followOnce({ base: base!, keys: keys!, dir: dir! });
process.stdout.write(
  `${JSON.stringify({ summary, max_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`,
);
