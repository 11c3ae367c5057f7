/* cardnames.h - the letters of a card's name, as solver/cards.py writes it:
 * rank then suit, for the card numbered suit * 13 + rank - 1. */
#ifndef CARDNAMES_H
#define CARDNAMES_H

#define CARD_RANKS "A23456789TJQK"
#define CARD_SUITS "CSHD"

#endif
