/**
 * The inventory's records and enums: what is stored in etcd and served by the API.
 *
 * <p>Records marked {@code @Value.Builder} get their builder, {@code <Record>Builder}, generated at
 * compile time by Immutables (docs/architecture.md#generated-builders). The style below makes it
 * the plain builder these records need: each setter sets the component of its name (a collection is
 * set whole, as the record receives it), nothing is mandatory and nothing is checked, because the
 * record's constructor normalises and {@code validate()} checks, whoever builds it (Jackson, the
 * builder, a test).
 */
@Value.Style(
    validationMethod = Value.Style.ValidationMethod.NONE,
    builtinContainerAttributes = false,
    jdkOnly = true,
    allowedClasspathAnnotations = {Override.class})
package io.bamel.inventory.model;

import org.immutables.value.Value;
