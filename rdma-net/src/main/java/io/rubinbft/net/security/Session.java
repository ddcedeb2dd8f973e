package io.rubinbft.net.security;

import java.security.cert.X509Certificate;

/**
 * An authenticated connection's keys: one MAC per direction, derived from an ephemeral X25519
 * exchange signed by both identities.
 *
 * @param peerCertificate the certificate the peer proved it holds, accepted by the authenticator
 * @param peerParameters what the peer declared in its HELLO
 * @param sendMac seals frames this side sends
 * @param receiveMac verifies frames the peer sends
 */
public record Session(
    X509Certificate peerCertificate,
    HelloParameters peerParameters,
    FrameMac sendMac,
    FrameMac receiveMac) {}
