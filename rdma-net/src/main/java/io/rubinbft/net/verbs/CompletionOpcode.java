package io.rubinbft.net.verbs;

/** What a completion reports. Only two-sided operations exist here. */
public enum CompletionOpcode {
  SEND,
  RECEIVE
}
