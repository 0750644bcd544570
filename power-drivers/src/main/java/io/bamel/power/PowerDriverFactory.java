package io.bamel.power;

import io.bamel.power.spi.PowerInterfaceType;

/**
 * A power interface that also builds its driver: what each driver package registers in {@code
 * META-INF/services/io.bamel.power.spi.PowerInterfaceType}. {@link Drivers#standard} builds one
 * driver per registered factory, so a new interface needs no line outside its package.
 */
public interface PowerDriverFactory extends PowerInterfaceType {

  /**
   * A new driver for this interface, whose {@link PowerDriver#powerInterface()} is {@link #name}.
   */
  PowerDriver create(DriverContext context);
}
