#ifndef FAKENFT_GCM_H
#define FAKENFT_GCM_H

#include <stddef.h>
#include <stdint.h>

/// One direction of AES-GCM (a 16- or 32-byte key, 12-byte nonces, 16-byte tags) on libcrypto,
/// its key schedule made once: each packet sets only its nonce.
typedef struct fakenft_gcm fakenft_gcm;

/// A direction sealing (`sealing` 1) or opening (0) with `key` (16 or 32 bytes); NULL when the
/// key's length is neither or libcrypto refuses.
fakenft_gcm *fakenft_gcm_new(const uint8_t *key, size_t key_length, int sealing);

void fakenft_gcm_free(fakenft_gcm *gcm);

/// Encrypts `length` bytes of `text` in place, authenticating `aad` too, and writes the tag.
/// Returns 0, or -1 when libcrypto fails.
int fakenft_gcm_seal(fakenft_gcm *gcm, const uint8_t nonce[12], const uint8_t *aad, size_t aad_length,
                     uint8_t *text, size_t length, uint8_t tag[16]);

/// Decrypts `length` bytes of `text` into `plain` (which may be `text`) when `tag` authenticates
/// them and `aad`. Returns 0, or -1 when it does not (`plain` is then to be ignored).
int fakenft_gcm_open(fakenft_gcm *gcm, const uint8_t nonce[12], const uint8_t *aad, size_t aad_length,
                     const uint8_t *text, size_t length, const uint8_t tag[16], uint8_t *plain);

#endif
