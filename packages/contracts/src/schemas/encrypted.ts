import { z } from 'zod';

/**
 * End-to-end encryption of a survey's answers (e2e.ts does the cryptography). The survey carries
 * the organization's public key; each response carries one envelope that only the private key,
 * kept by the organization outside the server, opens.
 */
export const E2E_ALGORITHM = 'RSA-OAEP-3072-SHA256+A256GCM' as const;
const b64 = (min: number, max: number) => z.string().min(min).max(max).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

/** An RSA-OAEP 3072-bit public key as SPKI, base64 (about 560 characters). */
export const EncryptionPublicKey = b64(400, 1_000);

export const EncryptedAnswers = z.object({
  alg: z.literal(E2E_ALGORITHM),
  /** The first 16 hex digits of SHA-256 of the public key's SPKI: which key file opens it. */
  kid: z.string().regex(/^[0-9a-f]{16}$/),
  /** The response's own AES-256 key, wrapped with RSA-OAEP to the survey's public key (512 characters). */
  key: b64(500, 600),
  /** 12 bytes. */
  iv: b64(16, 16),
  /** AES-256-GCM ciphertext of the answers' JSON (with the 16-byte tag); a response body is at most 4 MB. */
  data: b64(24, 5_600_000),
});
export type EncryptedAnswers = z.infer<typeof EncryptedAnswers>;
