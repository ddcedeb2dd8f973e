package io.rubinbft.orderer.validation;

import org.hyperledger.fabric.protos.common.Status;

/**
 * Fabric's answer to one request: the status and the info text. For Broadcast both go to the client
 * in the {@code BroadcastResponse}; Deliver sends only the status and the info is for logs.
 */
public record Verdict(Status status, String info) {

  private static final Verdict SUCCESS = new Verdict(Status.SUCCESS, "");

  public static Verdict success() {
    return SUCCESS;
  }

  static Verdict badRequest(String info) {
    return new Verdict(Status.BAD_REQUEST, info);
  }

  static Verdict forbidden(String info) {
    return new Verdict(Status.FORBIDDEN, info);
  }

  static Verdict serviceUnavailable(String info) {
    return new Verdict(Status.SERVICE_UNAVAILABLE, info);
  }

  static Verdict notFound(String info) {
    return new Verdict(Status.NOT_FOUND, info);
  }

  public boolean isSuccess() {
    return status == Status.SUCCESS;
  }
}
