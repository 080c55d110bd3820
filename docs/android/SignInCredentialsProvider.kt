// An adapter sketch for aws-sdk-kotlin: S3 requests signed with the session's STS credentials.
// NOT COMPILED IN THIS REPOSITORY (aws-sdk-kotlin and kotlinx-coroutines are not available on the
// machine that builds it): copy it into your app and build it there. docs/android.md, "S3 uploads".
//
// smithy-kotlin's CredentialsProvider asks for credentials before every request attempt, so
// resolve() must be a cheap cached read: session.credentials() is one (it refreshes, joining any
// refresh under way, only within 5 minutes of expiry by the server's clock). Do not wrap this in
// CachedCredentialsProvider: it caches by elapsed time and does not share one refresh.
package com.example.photos.signin

import aws.sdk.kotlin.services.s3.S3Client
import aws.sdk.kotlin.services.s3.model.PutObjectRequest
import aws.sdk.kotlin.services.s3.model.S3Exception
import aws.smithy.kotlin.runtime.auth.awscredentials.Credentials
import aws.smithy.kotlin.runtime.auth.awscredentials.CredentialsProvider
import aws.smithy.kotlin.runtime.collections.Attributes
import aws.smithy.kotlin.runtime.content.ByteStream
import aws.smithy.kotlin.runtime.time.Instant
import dev.signinbackend.client.SignInSession
import dev.signinbackend.client.TemporaryCredentials
import kotlinx.coroutines.future.await

class SignInCredentialsProvider(private val session: SignInSession) : CredentialsProvider {
    override suspend fun resolve(attributes: Attributes): Credentials = session.credentials().await().toSdk(session)
}

// `expirationMillis` is the server's time; the SDK compares `expiration` with the device's clock
// (a phone hours ahead would see fresh credentials as expired, one behind would keep expired ones):
// deviceTimeMillis moves it onto the device's clock by the offset the session measured.
fun TemporaryCredentials.toSdk(session: SignInSession): Credentials = Credentials(
    accessKeyId = accessKeyId,
    secretAccessKey = secretAccessKey,
    sessionToken = sessionToken,
    expiration = Instant.fromEpochMilliseconds(session.deviceTimeMillis(expirationMillis)),
    providerName = "SignInSession",
)

/**
 * PutObject that renews the credentials once on S3's ExpiredToken (a suspended app, a device clock
 * far off) and retries once: the SDK never retries ExpiredToken itself. Many uploads failing at
 * once share one refresh (credentialsReplacing refreshes only if these are still the current ones).
 */
suspend fun S3Client.putRetryingOnExpiredToken(session: SignInSession, bucket: String, key: String, body: ByteArray) {
    val request = PutObjectRequest {
        this.bucket = bucket
        this.key = key
        this.body = ByteStream.fromBytes(body)
        contentType = "image/jpeg"
    }
    val used = session.credentials().await()
    try {
        putObject(request)
    } catch (e: S3Exception) {
        if (e.sdkErrorMetadata.errorCode != "ExpiredToken") throw e
        session.credentialsReplacing(used.accessKeyId).await()
        putObject(request)
    }
}
