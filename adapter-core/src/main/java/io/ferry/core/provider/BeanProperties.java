package io.ferry.core.provider;

import java.beans.BeanInfo;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sets a connection factory's bean properties from configuration, where every value is written as text:
 * by the factory's public setters, each value converted to the setter's type (text, whole and decimal
 * numbers, booleans, enum constants). A property the factory has no setter for, or a value that is not
 * of its type, is one {@link InvalidConnectionException} naming {@code properties.<name>}.
 */
public final class BeanProperties {

    private BeanProperties() {
    }

    /** Sets every property on {@code bean}. */
    public static void apply(Object bean, Map<String, String> properties) {
        Map<String, Method> setters = setters(bean.getClass());
        for (Map.Entry<String, String> property : properties.entrySet()) {
            String key = "properties." + property.getKey();
            Method setter = setters.get(property.getKey());
            if (setter == null) {
                throw new InvalidConnectionException(key, bean.getClass().getName() + " has no property '" + property.getKey() + "'");
            }
            Object value = convert(key, property.getValue(), setter.getParameterTypes()[0]);
            try {
                setter.invoke(bean, value);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new InvalidConnectionException(key, "'" + shown(property.getKey(), property.getValue()) + "' refused: "
                        + why(property.getKey(), property.getValue(), cause), cause);
            } catch (IllegalAccessException e) {
                throw new InvalidConnectionException(key, "cannot be set: " + e.getMessage(), e);
            }
        }
    }

    /** A value as it may be shown: a password's never, a URL's with its passwords masked. */
    private static String shown(String property, String value) {
        return isPassword(property) ? "****" : BrokerUrls.masked(value);
    }

    /** The setter's reason, which may quote the value: a password's left out of it, a URL's passwords masked. */
    private static String why(String property, String value, Throwable refusal) {
        String why = String.valueOf(refusal.getMessage()).strip();
        if (isPassword(property) && !value.isEmpty()) {
            why = why.replace(value, "****");
        }
        return BrokerUrls.masked(why);
    }

    private static boolean isPassword(String property) {
        return property.toLowerCase(Locale.ROOT).contains("password");
    }

    /** Checks every property against the class without setting any: a setter exists and the value is of its type. */
    public static void check(Class<?> type, Map<String, String> properties) {
        for (Map.Entry<String, String> property : properties.entrySet()) {
            String key = "properties." + property.getKey();
            if (!checkValue(type, key, property.getKey(), property.getValue())) {
                throw new InvalidConnectionException(key, type.getName() + " has no property '" + property.getKey() + "'");
            }
        }
    }

    /**
     * Checks one property against the class: false when it has no such property; a value not of its type is
     * refused on {@code setting}, the key it was written under.
     */
    public static boolean checkValue(Class<?> type, String setting, String property, String value) {
        Method setter = setters(type).get(property);
        if (setter == null) {
            return false;
        }
        convert(setting, value, setter.getParameterTypes()[0]);
        return true;
    }

    /** The type {@code type}'s bean property {@code property} takes; null where it has no setter of that name. */
    public static Class<?> propertyType(Class<?> type, String property) {
        Method setter = setters(type).get(property);
        return setter == null ? null : setter.getParameterTypes()[0];
    }

    /** Checks that a value written under {@code setting} is of the type given (a client's option outside any bean). */
    public static void checkType(String setting, String value, Class<?> type) {
        convert(setting, value, type);
    }

    private static Map<String, Method> setters(Class<?> type) {
        try {
            BeanInfo info = Introspector.getBeanInfo(type);
            Map<String, Method> setters = new TreeMap<>();
            for (PropertyDescriptor descriptor : info.getPropertyDescriptors()) {
                if (descriptor.getWriteMethod() != null) {
                    setters.put(descriptor.getName(), descriptor.getWriteMethod());
                }
            }
            return setters;
        } catch (IntrospectionException e) {
            throw new InvalidConnectionException("class", type.getName() + " cannot be inspected: " + e.getMessage(), e);
        } catch (LinkageError e) {
            throw new InvalidConnectionException("class", type.getName() + " cannot be inspected: a class it needs is missing or "
                    + "failed to initialise (" + e + ")", e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object convert(String key, String text, Class<?> type) {
        String value = text == null ? "" : text.strip();
        try {
            if (type == String.class) {
                return text;
            }
            if (type == int.class || type == Integer.class) {
                return Integer.parseInt(value);
            }
            if (type == long.class || type == Long.class) {
                return Long.parseLong(value);
            }
            if (type == short.class || type == Short.class) {
                return Short.parseShort(value);
            }
            if (type == byte.class || type == Byte.class) {
                return Byte.parseByte(value);
            }
            if (type == double.class || type == Double.class) {
                return Double.parseDouble(value);
            }
            if (type == float.class || type == Float.class) {
                return Float.parseFloat(value);
            }
            if (type == boolean.class || type == Boolean.class) {
                if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
                    return Boolean.parseBoolean(value);
                }
                throw new IllegalArgumentException();
            }
            if (type.isEnum()) {
                for (Object constant : type.getEnumConstants()) {
                    if (((Enum) constant).name().equalsIgnoreCase(value)) {
                        return constant;
                    }
                }
                throw new IllegalArgumentException();
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidConnectionException(key, "'" + text + "' is not " + describe(type));
        }
        throw new InvalidConnectionException(key, "is of type " + type.getName() + ", which configuration cannot set");
    }

    private static String describe(Class<?> type) {
        if (type.isEnum()) {
            StringBuilder known = new StringBuilder();
            for (Object constant : type.getEnumConstants()) {
                known.append(known.length() == 0 ? "" : ", ").append(((Enum<?>) constant).name());
            }
            return "one of " + known;
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        String name = type.isPrimitive() ? type.getName() : type.getSimpleName().toLowerCase(Locale.ROOT);
        return switch (name) {
            case "int", "integer", "long", "short", "byte" -> "a whole number (" + name + ")";
            case "double", "float" -> "a number";
            default -> "a " + name;
        };
    }
}
