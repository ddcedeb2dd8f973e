package io.rubinbft.orderer.msp;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.Pem;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigValue;
import org.hyperledger.fabric.protos.msp.MSPConfig;
import org.hyperledger.fabric.protos.msp.SerializedIdentity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MSPs of one channel config (every org of the Application and Orderer groups) and Fabric's
 * identity deserializer over them. Validated identities are cached (bounded, least recently used
 * evicted): validation does not depend on time, so an entry stays right until the config changes,
 * and a config change builds a new {@code ChannelMsps}.
 */
public final class ChannelMsps {

  /** Distinct signers a channel keeps validated; a busy channel has far fewer clients. */
  public static final int DEFAULT_CACHE_CAPACITY = 4096;

  private static final Logger LOG = LoggerFactory.getLogger(ChannelMsps.class);
  private static final List<String> ORG_PARENT_GROUPS = List.of("Application", "Orderer");
  private static final String MSP_VALUE = "MSP";

  private final Map<String, FabricMsp> msps;
  private final BoundedCache<ByteString, Identity> validated;

  public ChannelMsps(Collection<FabricMsp> msps, int cacheCapacity) {
    Map<String, FabricMsp> byName = new LinkedHashMap<>();
    for (FabricMsp msp : msps) {
      if (byName.putIfAbsent(msp.name(), msp) != null) {
        throw new IllegalArgumentException("MSP " + msp.name() + " given twice");
      }
    }
    this.msps = Map.copyOf(byName);
    this.validated = new BoundedCache<>(cacheCapacity);
  }

  /** The MSPs of every org group under /Channel/Application and /Channel/Orderer. */
  public static ChannelMsps fromConfig(Config config, CryptoProvider provider, int cacheCapacity)
      throws MspConfigException {
    FabricMspConfigReader reader = new FabricMspConfigReader(provider);
    Map<String, ByteString> seen = new LinkedHashMap<>();
    List<FabricMsp> msps = new ArrayList<>();
    for (String parent : ORG_PARENT_GROUPS) {
      ConfigGroup parentGroup = config.getChannelGroup().getGroupsMap().get(parent);
      if (parentGroup == null) {
        continue;
      }
      for (Map.Entry<String, ConfigGroup> org : parentGroup.getGroupsMap().entrySet()) {
        ConfigValue value = org.getValue().getValuesMap().get(MSP_VALUE);
        if (value == null) {
          throw new MspConfigException(
              "org group /Channel/" + parent + "/" + org.getKey() + " has no MSP value");
        }
        FabricMsp msp;
        try {
          msp = reader.read(mspConfig(parent, org.getKey(), value));
        } catch (MspConfigException e) {
          // Fabric's channelconfig wraps an org's MSP setup failure so.
          throw new MspConfigException(
              "could not create channel "
                  + parent
                  + " sub-group config: setting up the MSP manager failed: "
                  + e.getMessage(),
              e);
        }
        ByteString earlier = seen.putIfAbsent(msp.name(), value.getValue());
        if (earlier == null) {
          msps.add(msp);
        } else if (!earlier.equals(value.getValue())) {
          throw new MspConfigException(
              "MSP " + msp.name() + " is defined twice with different configurations");
        }
      }
    }
    return new ChannelMsps(msps, cacheCapacity);
  }

  private static MSPConfig mspConfig(String parent, String org, ConfigValue value)
      throws MspConfigException {
    try {
      return MSPConfig.parseFrom(value.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new MspConfigException(
          "/Channel/" + parent + "/" + org + "/MSP is not an MSPConfig: " + e.getMessage(), e);
    }
  }

  public Optional<FabricMsp> msp(String mspId) {
    return Optional.ofNullable(msps.get(mspId));
  }

  public Collection<FabricMsp> all() {
    return msps.values();
  }

  /**
   * Every org's TLS root and intermediate CA certificates: what a client's TLS certificate must
   * chain to on this channel (Fabric builds its client trust pool from these).
   */
  public List<X509Certificate> tlsCaCertificates() {
    List<X509Certificate> certificates = new ArrayList<>();
    for (FabricMsp msp : msps.values()) {
      certificates.addAll(msp.tlsRootCertificates());
      certificates.addAll(msp.tlsIntermediateCertificates());
    }
    return List.copyOf(certificates);
  }

  /** Deserializes and validates a marshalled {@code SerializedIdentity} (mspid + PEM cert). */
  public IdentityResult deserialize(ByteString serializedIdentity) {
    Optional<Identity> cached = validated.get(serializedIdentity);
    if (cached.isPresent()) {
      return new IdentityResult.Valid(cached.get());
    }
    IdentityResult result = validate(serializedIdentity);
    switch (result) {
      case IdentityResult.Valid valid -> validated.put(serializedIdentity, valid.identity());
      case IdentityResult.Invalid invalid -> LOG.debug("invalid identity: {}", invalid.reason());
    }
    return result;
  }

  private IdentityResult validate(ByteString serializedIdentity) {
    SerializedIdentity identity;
    try {
      identity = SerializedIdentity.parseFrom(serializedIdentity);
    } catch (InvalidProtocolBufferException e) {
      return new IdentityResult.Invalid(
          "could not deserialize a SerializedIdentity: " + e.getMessage());
    }
    FabricMsp msp = msps.get(identity.getMspid());
    if (msp == null) {
      return new IdentityResult.Invalid(
          "MSP " + identity.getMspid() + " is not defined on channel");
    }
    Pem.Decoded<X509Certificate> certificate = Pem.firstCertificate(identity.getIdBytes());
    if (certificate.value().isEmpty()) {
      return new IdentityResult.Invalid(certificate.failure());
    }
    return msp.validate(certificate.value().get());
  }
}
