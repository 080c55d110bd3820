#ifndef SIGNIN_CLOOPBACKSTANDIN_H
#define SIGNIN_CLOOPBACKSTANDIN_H
// The whole-sign-in benchmark's stand-in for S3, STS and a JWKS host, served on 127.0.0.1 by one
// thread of the benchmark process. It is C, with every buffer static, so it allocates nothing
// while it serves: the malloc counts the benchmark reports are the function's own.
//
// S3 (path style, `/<bucket>/<key>`): GET answers a stored object (ETag, Content-Type and the
// x-amz-meta-* headers it was stored with) or 404 NoSuchKey; PUT stores, honouring `If-None-Match: *`
// and `If-Match` (412 otherwise). STS: a form POST to `/` with `Action=AssumeRole` answers fixed
// credentials that expire in an hour. Any other GET answers what `lsi_put` stored under its path
// (the JWKS). Signatures are not checked: moto does that in the integration tests.
#include <stddef.h>

/// Starts the server thread on a free loopback port; returns the port, or -1.
int lsi_start(void);
/// Stops the thread and closes every socket.
void lsi_stop(void);
/// Stores `body` under the request path `path` (e.g. "/jwks/apple"), as a PUT would; 0 on success.
int lsi_put(const char *path, const char *content_type, const void *body, size_t length);
/// Requests answered since the start (any status).
unsigned long lsi_requests(void);

#endif
