#ifndef SIGNIN_CCRYPTOSHIM_H
#define SIGNIN_CCRYPTOSHIM_H
// libcrypto's STACK_OF(X509) operations are macros (type-checked casts around OPENSSL_sk_*), which
// Swift cannot import. These are those macros as functions, nothing more; the types are declared
// incomplete so this header pulls no OpenSSL header into Swift (COpenSSL has them), and Swift sees
// both as OpaquePointer.
struct x509_st;
struct stack_st_X509;

/// sk_X509_new_null(): an empty stack, or NULL when out of memory.
struct stack_st_X509 *ccrypto_sk_x509_new_null(void);
/// sk_X509_push(): appends without taking a reference; the count after, or 0 on failure.
int ccrypto_sk_x509_push(struct stack_st_X509 *stack, struct x509_st *certificate);
/// sk_X509_num(): the count, or -1 for NULL.
int ccrypto_sk_x509_num(const struct stack_st_X509 *stack);
/// sk_X509_value(): the certificate at index (not a new reference), or NULL out of range.
struct x509_st *ccrypto_sk_x509_value(const struct stack_st_X509 *stack, int index);
/// sk_X509_free(): frees the stack only (for one whose certificates are owned elsewhere).
void ccrypto_sk_x509_free(struct stack_st_X509 *stack);
#endif
