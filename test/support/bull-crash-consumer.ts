// A Bull consumer that takes jobs and never finishes them, so a test can SIGKILL it mid-job and
// watch another consumer get the job. Prints "active <jobId>" when it holds a job.
// Usage: node -r ./test/support/ts-register.js test/support/bull-crash-consumer.ts <redisUrl> <prefix> <queue> <lockMs> <stalledMs>
import { BullJobQueue } from '../../libs/queue/src/bull/bull-job-queue';

const [redisUrl, prefix, queueName, lockMs, stalledMs] = process.argv.slice(2);
const queue = new BullJobQueue({ redisUrl, prefix, lockDurationMs: Number(lockMs), stalledIntervalMs: Number(stalledMs) });
queue.process(queueName, { concurrency: 1 }, async (job) => {
  process.stdout.write(`active ${job.id}\n`);
  await new Promise(() => undefined);
});
process.stdout.write('ready\n');
