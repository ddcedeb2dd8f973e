package io.rubinbft.orderer.msp;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.rubinbft.orderer.crypto.Pem;
import java.security.cert.X509Certificate;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.MSPPrincipal;
import org.hyperledger.fabric.protos.common.MSPRole;
import org.hyperledger.fabric.protos.common.OrganizationUnit;
import org.hyperledger.fabric.protos.msp.SerializedIdentity;

/**
 * A principal of a signature policy ({@code common.MSPPrincipal}), decoded once when the policy is
 * built, with Fabric's rule for whether a validated identity satisfies it.
 */
public sealed interface MspPrincipal {

  boolean isSatisfiedBy(Identity identity);

  /** ROLE: a member, admin, client, peer or orderer of an MSP. */
  record Role(String mspId, MSPRole.MSPRoleType role) implements MspPrincipal {
    @Override
    public boolean isSatisfiedBy(Identity identity) {
      if (!identity.mspId().equals(mspId)) {
        return false;
      }
      return switch (role) {
        case MEMBER -> true;
        case ADMIN -> identity.isAdmin();
        case CLIENT -> identity.nodeRole().equals(Optional.of(NodeRole.CLIENT));
        case PEER -> identity.nodeRole().equals(Optional.of(NodeRole.PEER));
        case ORDERER -> identity.nodeRole().equals(Optional.of(NodeRole.ORDERER));
        case UNRECOGNIZED -> false;
      };
    }
  }

  /** IDENTITY: exactly this certificate in this MSP. */
  record Exact(String mspId, ByteString certificateDer) implements MspPrincipal {
    @Override
    public boolean isSatisfiedBy(Identity identity) {
      return identity.mspId().equals(mspId) && identity.certificateDer().equals(certificateDer);
    }
  }

  /** ORGANIZATION_UNIT: an identity of this MSP holding this OU from these certifiers. */
  record Unit(String mspId, String organizationalUnit, ByteString certifiersIdentifier)
      implements MspPrincipal {
    @Override
    public boolean isSatisfiedBy(Identity identity) {
      return identity.mspId().equals(mspId)
          && identity.organizationalUnits().stream()
              .anyMatch(
                  ou ->
                      ou.organizationalUnit().equals(organizationalUnit)
                          && ou.certifiersIdentifier().equals(certifiersIdentifier));
    }
  }

  /** Decodes a policy's principal; ANONYMITY and COMBINED principals are not supported. */
  static MspPrincipal of(MSPPrincipal principal) throws MspConfigException {
    try {
      return switch (principal.getPrincipalClassification()) {
        case ROLE -> {
          MSPRole role = MSPRole.parseFrom(principal.getPrincipal());
          yield new Role(role.getMspIdentifier(), role.getRole());
        }
        case IDENTITY -> {
          SerializedIdentity identity = SerializedIdentity.parseFrom(principal.getPrincipal());
          X509Certificate certificate =
              Pem.firstCertificate(identity.getIdBytes())
                  .orElseThrow(
                      MspConfigException.about("invalid identity principal, not a certificate"));
          yield new Exact(identity.getMspid(), Identity.der(certificate));
        }
        case ORGANIZATION_UNIT -> {
          OrganizationUnit unit = OrganizationUnit.parseFrom(principal.getPrincipal());
          yield new Unit(
              unit.getMspIdentifier(),
              unit.getOrganizationalUnitIdentifier(),
              unit.getCertifiersIdentifier());
        }
        default ->
            throw new MspConfigException(
                "principal classification "
                    + principal.getPrincipalClassification()
                    + " is not supported");
      };
    } catch (InvalidProtocolBufferException e) {
      throw new MspConfigException("could not unmarshal principal: " + e.getMessage(), e);
    }
  }
}
