/**
 * An in-process fleet of simulated IPMI v2.0 BMCs: many BMCs, each on its own UDP port of
 * 127.0.0.1, answering RMCP+ (Get Channel Authentication Capabilities, Open Session, RAKP 1 to 4,
 * chassis status and control, Close Session; cipher suites 3 and 17) after a configurable delay.
 *
 * <p>Written from the IPMI v2.0 specification (sections 13.x, 22 and 28) with its own message code,
 * so that bamel's RMCP+ client is checked against it by ipmitool and freeipmi, not only by itself.
 */
package io.bamel.power.sim.ipmi;
