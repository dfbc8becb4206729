/** The part of mt940js (which ships no types) the format suite uses: its parser of MT940 statements. */
declare module 'mt940js' {
  export interface Mt940Transaction {
    date: Date;
    amount: number;
    currency: string;
    details: string;
    reference: string;
    bankReference?: string;
  }
  export interface Mt940Statement {
    transactionReference: string;
    accountIdentification: string;
    currency: string;
    openingBalance: number;
    closingBalance: number;
    transactions: Mt940Transaction[];
  }
  export class Parser {
    parse(data: string): Mt940Statement[];
  }
}
