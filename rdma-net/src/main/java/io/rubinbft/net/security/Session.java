package io.rubinbft.net.security;

import java.security.cert.X509Certificate;

/**
 * A connection's keys: one cipher per direction, derived from an ephemeral X25519 exchange. The
 * peer is authenticated only once its AUTH verified ({@link Handshake#acceptAuth}).
 *
 * @param peerCertificate the certificate in the peer's HELLO, accepted by the authenticator
 * @param peerParameters what the peer declared in its HELLO
 * @param sendCipher seals frames this side sends
 * @param receiveCipher opens frames the peer sends
 */
public record Session(
    X509Certificate peerCertificate,
    HelloParameters peerParameters,
    FrameCipher sendCipher,
    FrameCipher receiveCipher) {}
