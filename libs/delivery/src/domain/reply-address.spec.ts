import { jobOfReplyAddress, replyAddress } from './reply-address';

describe('reply addresses', () => {
  const key = Buffer.alloc(32, 7);
  const jobId = '0123456789abcdef01234567';

  it('names the job, at the domain, within 64 characters of local part, and reads back', () => {
    const address = replyAddress(jobId, key, 'replies.example.com');
    expect(address).toMatch(/^r-0123456789abcdef01234567-[0-9a-f]{20}@replies\.example\.com$/);
    expect(address.split('@')[0].length).toBeLessThanOrEqual(64);
    expect(jobOfReplyAddress(address, key, 'replies.example.com')).toBe(jobId);
    expect(jobOfReplyAddress(address.toUpperCase(), key, 'replies.example.com')).toBe(jobId);
  });

  it('refuses another domain, another key, a changed job id and anything else', () => {
    const address = replyAddress(jobId, key, 'replies.example.com');
    expect(jobOfReplyAddress(address, key, 'example.com')).toBeUndefined();
    expect(jobOfReplyAddress(address, Buffer.alloc(32, 8), 'replies.example.com')).toBeUndefined();
    expect(jobOfReplyAddress(address.replace('r-0', 'r-1'), key, 'replies.example.com')).toBeUndefined();
    expect(jobOfReplyAddress('someone@replies.example.com', key, 'replies.example.com')).toBeUndefined();
    expect(jobOfReplyAddress('no-at-sign', key, 'replies.example.com')).toBeUndefined();
  });
});
