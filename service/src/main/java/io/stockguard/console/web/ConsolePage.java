package io.stockguard.console.web;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks controllers that render console pages, so that their model and errors are the console's, not JSON. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@interface ConsolePage {
}
