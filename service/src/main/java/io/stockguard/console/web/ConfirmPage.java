package io.stockguard.console.web;

/**
 * The second and last step of an action: what will happen, the reason (prefilled where speed
 * matters more than prose, always editable), and the button that does it.
 *
 * @param consequence what happens when the button is pressed, in one or two sentences
 * @param reasonDefault the reason the field starts with; empty to make the person write one
 * @param returnTo the console page shown after the action
 */
record ConfirmPage(String title, String consequence, String actionUrl, String buttonLabel, String reasonDefault,
        String returnTo, boolean danger, String cancelUrl) {
}
