CREATE TABLE "$metadata" (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE "$history_counter" ("id" INTEGER PRIMARY KEY, "store" TEXT NOT NULL, "lastToken" INTEGER NOT NULL, "deletedThrough" INTEGER NOT NULL);
CREATE TABLE "$history" ("token" INTEGER PRIMARY KEY, "author" TEXT, "timestamp" REAL NOT NULL, "bundle" TEXT NOT NULL, "process" TEXT NOT NULL);
CREATE TABLE "$history_changes" ("token" INTEGER NOT NULL, "change" INTEGER NOT NULL, "kind" INTEGER NOT NULL, "entity" TEXT NOT NULL, "row" INTEGER NOT NULL, "attributes" TEXT, "tombstone" BLOB, PRIMARY KEY ("token", "change")) WITHOUT ROWID;
CREATE TABLE "Trip" ("$pk" INTEGER PRIMARY KEY, "$type" TEXT NOT NULL, "name" TEXT NOT NULL, "startDate" REAL NOT NULL, "endDate" REAL NOT NULL, "identifier" BLOB NOT NULL, "BusinessTrip.company" TEXT CHECK ("$type" <> 'BusinessTrip' OR "BusinessTrip.company" IS NOT NULL), "BusinessTrip.expenseReport" TEXT, "BusinessTrip.meetingAgenda" TEXT, "PersonalTrip.reason" TEXT CHECK ("$type" <> 'PersonalTrip' OR "PersonalTrip.reason" IS NOT NULL), "PersonalTrip.companions" TEXT DEFAULT '[]' CHECK ("$type" <> 'PersonalTrip' OR "PersonalTrip.companions" IS NOT NULL));
CREATE TABLE "Accommodation" ("$pk" INTEGER PRIMARY KEY, "$type" TEXT NOT NULL, "name" TEXT NOT NULL, "trip" INTEGER REFERENCES "Trip"("$pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED);
CREATE INDEX "Accommodation.index(trip)" ON "Accommodation" ("trip");
CREATE TABLE "Itinerary" ("$pk" INTEGER PRIMARY KEY, "$type" TEXT NOT NULL, "title" TEXT NOT NULL, "days" TEXT NOT NULL DEFAULT '[]', "trip" INTEGER REFERENCES "Trip"("$pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED);
CREATE INDEX "Itinerary.index(trip)" ON "Itinerary" ("trip");
