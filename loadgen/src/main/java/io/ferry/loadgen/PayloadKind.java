package io.ferry.loadgen;

/** The JMS message type that carries a payload: a {@code BytesMessage} or a {@code TextMessage}. */
public enum PayloadKind { BYTES, TEXT }
