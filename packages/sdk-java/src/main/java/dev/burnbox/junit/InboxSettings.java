package dev.burnbox.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** How {@link BurnBoxExtension} creates the inbox of this parameter: {@code @InboxSettings(ttl = "10m") Inbox inbox}. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface InboxSettings {
  /** How long it lives ({@code "10m"}, {@code "2h"}); empty: the team's default. */
  String ttl() default "";

  /** Its local part; empty: a random one. */
  String alias() default "";
}
