package io.ferry.cli.logging;

/**
 * The name {@link RepeatedRefusalErrorFilter} had while it dropped refused declarations only, kept so that a logging
 * configuration of a user's own that names it goes on working.
 */
public final class RepeatedDeclarationErrorFilter extends RepeatedRefusalErrorFilter {
}
