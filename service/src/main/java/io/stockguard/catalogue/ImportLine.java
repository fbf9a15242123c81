package io.stockguard.catalogue;

import io.stockguard.reservation.StockCommand;

/** One line of an import file, read: the change it asks for, or why it cannot be made. */
sealed interface ImportLine {

    /** The line's number in the file, counting from 1 (a CSV file's header is line 1). */
    long number();

    record Valid(long number, StockCommand.Upsert upsert) implements ImportLine {
    }

    record Invalid(long number, LineError error) implements ImportLine {
    }
}
