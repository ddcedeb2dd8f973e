package io.rubinbft.orderer.testing;

import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.tools.bootstrap.ChannelConfigFactory;
import io.rubinbft.orderer.tools.bootstrap.CryptoGenerator;
import io.rubinbft.orderer.tools.bootstrap.OrgKind;
import io.rubinbft.orderer.tools.bootstrap.OrgLayout;
import io.rubinbft.orderer.tools.bootstrap.OrgSpec;
import io.rubinbft.orderer.tools.bootstrap.Organization;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import org.hyperledger.fabric.protos.common.ConfigGroup;

/**
 * An application organization made to be added to a running channel, as an operator makes one:
 * cryptogen-style crypto (CA, TLS CA, a peer, an admin and one client user, NodeOUs) and the config
 * group {@code configtxgen -printOrg} prints for it.
 *
 * @param name the org's group name in /Channel/Application
 * @param mspId its MSP id
 * @param layout where its crypto is
 * @param group its config group, every element at version 0
 */
public record ApplicationOrg(String name, String mspId, OrgLayout layout, ConfigGroup group) {

  /** Generates org {@code name} ({@code <Name>MSP}) under {@code cryptoRoot} for {@code domain}. */
  public static ApplicationOrg generate(Path cryptoRoot, String name, String domain) {
    OrgLayout layout =
        new CryptoGenerator(new SecureRandom(), Instant.now())
            .generate(cryptoRoot, new OrgSpec(domain, OrgKind.PEER, List.of("peer0"), 1));
    String mspId = name + "MSP";
    ConfigGroup group =
        ChannelConfigFactory.organizationGroup(
            Organization.application(name, mspId, layout.mspDir(), List.of()));
    return new ApplicationOrg(name, mspId, layout, group);
  }

  public SigningIdentity admin() {
    return identity(layout.adminDir());
  }

  /** The client user User1 (NodeOU client): a writer and reader under the usual policies. */
  public SigningIdentity user() {
    return identity(layout.userDir(1));
  }

  /** The client user's TLS folder: {@code ca.crt}, {@code client.crt}, {@code client.key}. */
  public Path userTls() {
    return layout.userDir(1).resolve("tls");
  }

  private SigningIdentity identity(Path dir) {
    return SigningIdentity.fromMspDirectory(
        dir.resolve("msp"), mspId, CryptoProvider.preferNative());
  }
}
