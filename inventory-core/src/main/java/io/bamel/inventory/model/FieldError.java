package io.bamel.inventory.model;

/**
 * One invalid field of an input: where it is (a JSON-pointer-like path such as {@code
 * resources.cpu}) and what is wrong with it, in words an operator can act on.
 */
public record FieldError(String field, String message) {}
