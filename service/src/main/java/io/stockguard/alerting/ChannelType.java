package io.stockguard.alerting;

import java.util.EnumSet;
import java.util.Set;

/** The kinds of channel, each with its provider's wire format and the levels it takes by default. */
public enum ChannelType {
    /** Feishu / Lark custom bot. */
    FEISHU,
    /** DingTalk custom robot. */
    DINGTALK,
    /** Slack incoming webhook. */
    SLACK,
    /** Any HTTP endpoint that takes the alert as JSON. */
    WEBHOOK,
    /** The user's SMS provider, called as a webhook. */
    SMS,
    /** The user's phone-call provider, called as a webhook. */
    PHONE;

    /** SMS and phone reach people by number, so they need recipients. */
    public boolean pages() {
        return this == SMS || this == PHONE;
    }

    /** Only Feishu and DingTalk define how a secret signs a message. */
    public boolean signs() {
        return this == FEISHU || this == DINGTALK;
    }

    /** Chat takes WARN and up, SMS THROTTLE and up, phone FREEZE only: the louder, the rarer. */
    public Set<AlertLevel> defaultLevels() {
        return switch (this) {
            case FEISHU, DINGTALK, SLACK, WEBHOOK -> EnumSet.of(AlertLevel.WARN, AlertLevel.THROTTLE, AlertLevel.FREEZE);
            case SMS -> EnumSet.of(AlertLevel.THROTTLE, AlertLevel.FREEZE);
            case PHONE -> EnumSet.of(AlertLevel.FREEZE);
        };
    }
}
