/* cmd_lift.h - `lego lift` (internal to the CLI). */
#ifndef LEGO_CMD_LIFT_H
#define LEGO_CMD_LIFT_H

/* Takes the arguments after the command name; returns the exit status. */
int lego_cmd_lift(int argc, char **argv);

#endif
