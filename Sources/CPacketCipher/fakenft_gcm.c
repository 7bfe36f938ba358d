#include "fakenft_gcm.h"

#include <limits.h>
#include <stdlib.h>
#include <openssl/evp.h>

struct fakenft_gcm {
    EVP_CIPHER_CTX *context;
};

fakenft_gcm *fakenft_gcm_new(const uint8_t *key, size_t key_length, int sealing) {
    const EVP_CIPHER *cipher = key_length == 16 ? EVP_aes_128_gcm() : key_length == 32 ? EVP_aes_256_gcm() : NULL;
    if (cipher == NULL) return NULL;
    fakenft_gcm *gcm = malloc(sizeof *gcm);
    if (gcm == NULL) return NULL;
    gcm->context = EVP_CIPHER_CTX_new();
    if (gcm->context == NULL || EVP_CipherInit_ex(gcm->context, cipher, NULL, key, NULL, sealing ? 1 : 0) != 1) {
        fakenft_gcm_free(gcm);
        return NULL;
    }
    return gcm;
}

void fakenft_gcm_free(fakenft_gcm *gcm) {
    if (gcm == NULL) return;
    EVP_CIPHER_CTX_free(gcm->context);
    free(gcm);
}

/// Sets the packet's nonce (the key stays) and feeds `aad`.
static int begin(fakenft_gcm *gcm, const uint8_t nonce[12], const uint8_t *aad, size_t aad_length) {
    int written = 0;
    if (aad_length > INT_MAX) return -1;
    if (EVP_CipherInit_ex(gcm->context, NULL, NULL, NULL, nonce, -1) != 1) return -1;
    if (EVP_CipherUpdate(gcm->context, NULL, &written, aad, (int)aad_length) != 1) return -1;
    return 0;
}

int fakenft_gcm_seal(fakenft_gcm *gcm, const uint8_t nonce[12], const uint8_t *aad, size_t aad_length,
                     uint8_t *text, size_t length, uint8_t tag[16]) {
    int written = 0, last = 0;
    if (length > INT_MAX || begin(gcm, nonce, aad, aad_length) != 0) return -1;
    if (EVP_CipherUpdate(gcm->context, text, &written, text, (int)length) != 1) return -1;
    if (EVP_CipherFinal_ex(gcm->context, text + written, &last) != 1) return -1;
    if (EVP_CIPHER_CTX_ctrl(gcm->context, EVP_CTRL_GCM_GET_TAG, 16, tag) != 1) return -1;
    return 0;
}

int fakenft_gcm_open(fakenft_gcm *gcm, const uint8_t nonce[12], const uint8_t *aad, size_t aad_length,
                     const uint8_t *text, size_t length, const uint8_t tag[16], uint8_t *plain) {
    int written = 0, last = 0;
    if (length > INT_MAX || begin(gcm, nonce, aad, aad_length) != 0) return -1;
    if (EVP_CipherUpdate(gcm->context, plain, &written, text, (int)length) != 1) return -1;
    if (EVP_CIPHER_CTX_ctrl(gcm->context, EVP_CTRL_GCM_SET_TAG, 16, (void *)tag) != 1) return -1;
    if (EVP_CipherFinal_ex(gcm->context, plain + written, &last) != 1) return -1;
    return 0;
}
