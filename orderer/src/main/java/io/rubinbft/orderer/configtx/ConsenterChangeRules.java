package io.rubinbft.orderer.configtx;

import io.rubinbft.orderer.channel.Consenter;
import io.rubinbft.orderer.channel.ConsenterMapping;
import io.rubinbft.orderer.channel.OrdererOrgs;
import io.rubinbft.orderer.msp.ChannelMsps;
import io.rubinbft.orderer.msp.FabricMsp;
import io.rubinbft.orderer.msp.IdentityResult;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.hyperledger.fabric.protos.common.Config;

/**
 * The checks a config update that touches the ConsenterMapping must pass: no two consenters sharing
 * a certificate or an endpoint, and every added or changed consenter an identity of an orderer
 * organization's MSP. Any number of consenters may be added, removed or renewed in one update, as
 * Fabric v3's BFT orderer allows (only its etcdraft membership check has Fabric's "update of more
 * than one consenter at a time is not supported"). A renewal (same id, new identity or TLS
 * certificates, same key or not) is neither an addition nor a removal. The BlockValidation policy
 * over the new set is checked by {@code ConfigBlockReader} like any config's.
 */
final class ConsenterChangeRules {

  private ConsenterChangeRules() {}

  /**
   * @param next the consenters of the config the update leads to
   * @param nextConfig that config, whose orderer organizations' MSPs {@code msps} holds
   * @throws ConfigUpdateException naming the first consenter (by id) that breaks a rule
   */
  static void check(
      ConsenterMapping current, ConsenterMapping next, Config nextConfig, ChannelMsps msps)
      throws ConfigUpdateException {
    if (current.equals(next)) {
      return;
    }
    checkDistinct(next);
    // Their MSP values were parsed when msps was built.
    Set<String> ordererMsps = OrdererOrgs.mspIds(nextConfig);
    for (Consenter consenter : next.consenters()) {
      if (!current.consenters().contains(consenter)) {
        checkIdentity(consenter, ordererMsps, msps);
      }
    }
  }

  /** One node counted twice would let it vote twice; one address twice, one node unreachable. */
  private static void checkDistinct(ConsenterMapping next) throws ConfigUpdateException {
    Map<X509Certificate, Long> certificates = new HashMap<>();
    Map<String, Long> endpoints = new HashMap<>();
    for (Consenter consenter : next.consenters()) {
      for (X509Certificate certificate :
          List.of(
              consenter.identityCertificate(),
              consenter.clientTlsCertificate(),
              consenter.serverTlsCertificate())) {
        Long other = certificates.putIfAbsent(certificate, consenter.id());
        if (other != null && other != consenter.id()) {
          throw ConfigUpdateException.badRequest(
              "consenters "
                  + other
                  + " and "
                  + consenter.id()
                  + " share the certificate of "
                  + certificate.getSubjectX500Principal().getName());
        }
      }
      String endpoint = consenter.host() + ":" + consenter.port();
      Long other = endpoints.putIfAbsent(endpoint, consenter.id());
      if (other != null) {
        throw ConfigUpdateException.badRequest(
            "consenters " + other + " and " + consenter.id() + " share the endpoint " + endpoint);
      }
    }
  }

  private static void checkIdentity(Consenter consenter, Set<String> ordererMsps, ChannelMsps msps)
      throws ConfigUpdateException {
    String where = "consenter " + consenter.id() + ": ";
    if (!ordererMsps.contains(consenter.mspId())) {
      throw ConfigUpdateException.badRequest(
          where
              + "msp_id '"
              + consenter.mspId()
              + "' is not the MSP of an orderer organization "
              + ordererMsps);
    }
    Optional<FabricMsp> msp = msps.msp(consenter.mspId());
    if (msp.isEmpty()) {
      throw new IllegalStateException("orderer MSP " + consenter.mspId() + " was not built");
    }
    if (msp.get().validate(consenter.identityCertificate()) instanceof IdentityResult.Invalid bad) {
      throw ConfigUpdateException.badRequest(
          where + "identity is not valid under MSP '" + consenter.mspId() + "': " + bad.reason());
    }
  }
}
