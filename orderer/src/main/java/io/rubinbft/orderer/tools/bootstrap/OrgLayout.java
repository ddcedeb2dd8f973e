package io.rubinbft.orderer.tools.bootstrap;

import java.nio.file.Path;

/**
 * Where cryptogen puts one organization's files, e.g. {@code
 * crypto/ordererOrganizations/example.com/orderers/orderer1.example.com/msp}.
 *
 * @param cryptoRoot the folder holding {@code ordererOrganizations/} and {@code peerOrganizations/}
 */
public record OrgLayout(Path cryptoRoot, String domain, OrgKind kind) {

  public static OrgLayout of(Path cryptoRoot, OrgSpec spec) {
    return new OrgLayout(cryptoRoot, spec.domain(), spec.kind());
  }

  public Path orgDir() {
    return cryptoRoot.resolve(kind.organizationsFolder()).resolve(domain);
  }

  /** The organization's verifying MSP: what configtxgen's MSPDir points to. */
  public Path mspDir() {
    return orgDir().resolve("msp");
  }

  /** A node's folder holding {@code msp/} and {@code tls/}; host is e.g. {@code orderer1}. */
  public Path nodeDir(String host) {
    return orgDir().resolve(kind.nodesFolder()).resolve(host + "." + domain);
  }

  /** The admin's folder, {@code users/Admin@domain}. */
  public Path adminDir() {
    return userDir("Admin");
  }

  /** A client user's folder, {@code users/User<n>@domain}, n from 1. */
  public Path userDir(int n) {
    return userDir("User" + n);
  }

  /** The enrollment certificate in an identity folder's {@code msp/signcerts}. */
  public Path signCert(Path identityDir) {
    String name = identityDir.getFileName().toString();
    return identityDir.resolve("msp").resolve("signcerts").resolve(name + "-cert.pem");
  }

  private Path userDir(String user) {
    return orgDir().resolve("users").resolve(user + "@" + domain);
  }
}
