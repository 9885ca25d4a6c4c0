package dev.stockhold.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@link TenantFixture} test class: before each test, the fixture's {@code sku} gets this much stock at the
 * tenant's default location.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Inherited
public @interface StockedSku {

    /** Units on hand. */
    int value();
}
