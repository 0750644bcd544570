package io.bamel.power.ipmi.rmcp;

import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.crypto.Cipher;
import javax.crypto.Mac;

/**
 * Idle {@link Mac} and {@link Cipher} instances kept for reuse, by algorithm, so that a fleet's
 * thousands of packets do not each look up a provider and build an engine. A thread-local cache
 * would not do: each BMC's call runs on its own short-lived virtual thread. Callers take an
 * instance, initialise it with their key (which resets it), use it, and give it back; an instance
 * is never used by two threads at once. At most {@link #KEPT} idle instances per algorithm are
 * kept.
 */
final class CryptoPool {

  static final int KEPT = 64;

  private static final Map<String, Queue<Mac>> MACS = new ConcurrentHashMap<>();
  private static final Map<String, Queue<Cipher>> CIPHERS = new ConcurrentHashMap<>();

  private CryptoPool() {}

  static Mac mac(String algorithm) throws GeneralSecurityException {
    Mac mac = MACS.computeIfAbsent(algorithm, a -> new ConcurrentLinkedQueue<>()).poll();
    return mac != null ? mac : Mac.getInstance(algorithm);
  }

  static void give(Mac mac) {
    Queue<Mac> idle = MACS.get(mac.getAlgorithm());
    if (idle != null && idle.size() < KEPT) {
      idle.offer(mac);
    }
  }

  static Cipher cipher(String transformation) throws GeneralSecurityException {
    Cipher cipher =
        CIPHERS.computeIfAbsent(transformation, a -> new ConcurrentLinkedQueue<>()).poll();
    return cipher != null ? cipher : Cipher.getInstance(transformation);
  }

  static void give(Cipher cipher) {
    Queue<Cipher> idle = CIPHERS.get(cipher.getAlgorithm());
    if (idle != null && idle.size() < KEPT) {
      idle.offer(cipher);
    }
  }
}
