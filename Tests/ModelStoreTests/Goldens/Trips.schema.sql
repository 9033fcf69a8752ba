CREATE TABLE "$metadata" (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE "$tombstones" ("id" INTEGER PRIMARY KEY, entity TEXT NOT NULL, rowID INTEGER NOT NULL, deletedAt REAL NOT NULL);
CREATE TABLE "$tombstone_values" (tombstone INTEGER NOT NULL REFERENCES "$tombstones"(id) ON DELETE CASCADE, property TEXT NOT NULL, value, PRIMARY KEY (tombstone, property)) WITHOUT ROWID;
CREATE TABLE "Trip" ("$pk" INTEGER PRIMARY KEY, "$type" TEXT NOT NULL, "name" TEXT NOT NULL, "startDate" REAL NOT NULL, "endDate" REAL NOT NULL, "identifier" BLOB NOT NULL, "BusinessTrip.company" TEXT CHECK ("$type" <> 'BusinessTrip' OR "BusinessTrip.company" IS NOT NULL), "BusinessTrip.expenseReport" TEXT, "BusinessTrip.meetingAgenda" TEXT, "PersonalTrip.reason" TEXT CHECK ("$type" <> 'PersonalTrip' OR "PersonalTrip.reason" IS NOT NULL), "PersonalTrip.companions" TEXT DEFAULT '[]' CHECK ("$type" <> 'PersonalTrip' OR "PersonalTrip.companions" IS NOT NULL));
CREATE TABLE "Accommodation" ("$pk" INTEGER PRIMARY KEY, "$type" TEXT NOT NULL, "name" TEXT NOT NULL, "trip" INTEGER REFERENCES "Trip"("$pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED);
CREATE INDEX "Accommodation.index(trip)" ON "Accommodation" ("trip");
CREATE TABLE "Itinerary" ("$pk" INTEGER PRIMARY KEY, "$type" TEXT NOT NULL, "title" TEXT NOT NULL, "days" TEXT NOT NULL DEFAULT '[]', "trip" INTEGER REFERENCES "Trip"("$pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED);
CREATE INDEX "Itinerary.index(trip)" ON "Itinerary" ("trip");
