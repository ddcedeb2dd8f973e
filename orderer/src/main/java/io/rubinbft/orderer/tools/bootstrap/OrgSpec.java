package io.rubinbft.orderer.tools.bootstrap;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What cryptogen's crypto-config.yaml says about one organization: its domain, its kind, the host
 * names of its nodes (orderers or peers) and how many client users it has besides its admin. Every
 * node's TLS certificate names {@code host.domain}, {@code host}, {@code localhost} and {@code
 * 127.0.0.1}.
 */
public record OrgSpec(String domain, OrgKind kind, List<String> hostnames, int users) {

  /** cryptogen has no such cap; ours keeps a typo from filling the disk with key pairs. */
  static final int MAX_IDENTITIES = 1_000;

  private static final Pattern DNS_LABEL =
      Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

  public OrgSpec {
    hostnames = List.copyOf(hostnames);
    if (domain.isBlank() || domain.contains("/")) {
      throw new IllegalArgumentException("organization domain '" + domain + "' is not a DNS name");
    }
    if (users < 0 || hostnames.size() + users > MAX_IDENTITIES) {
      throw new IllegalArgumentException(
          hostnames.size() + " nodes and " + users + " users: expected 0.." + MAX_IDENTITIES);
    }
    for (String host : hostnames) {
      if (!DNS_LABEL.matcher(host).matches()) {
        throw new IllegalArgumentException("host name '" + host + "' is not a DNS label");
      }
    }
    if (hostnames.stream().distinct().count() != hostnames.size()) {
      throw new IllegalArgumentException("host names repeat: " + hostnames);
    }
  }
}
