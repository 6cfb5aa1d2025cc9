// Preloaded (`node --import`) into every measured child: on exit, writes the process's own CPU time and
// peak RSS to $BENCH_USAGE_FILE, so the parent gets them without /usr/bin/time.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssKb: u.maxRSS }));
  });
}
