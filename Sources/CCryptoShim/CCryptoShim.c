#include "CCryptoShim.h"
#include <openssl/x509.h>

STACK_OF(X509) *ccrypto_sk_x509_new_null(void) { return sk_X509_new_null(); }

int ccrypto_sk_x509_push(STACK_OF(X509) *stack, X509 *certificate) { return sk_X509_push(stack, certificate); }

int ccrypto_sk_x509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }

X509 *ccrypto_sk_x509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }

void ccrypto_sk_x509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }

